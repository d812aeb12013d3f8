/** A tile's thumbnail: asks the loader while mounted, lets go (cancelling) when it unmounts. */
import { useEffect, useState } from 'react';
import type { Thumb, ThumbnailLoader } from './thumbnailLoader';

export function useThumbnail(loader: ThumbnailLoader, path: string | null): Thumb | undefined {
  const [state, setState] = useState<{ path: string; thumb: Thumb } | null>(null);
  useEffect(() => {
    if (!path) return;
    return loader.request(path, (thumb) => setState({ path, thumb }));
  }, [loader, path]);
  if (!path) return undefined;
  return state?.path === path ? state.thumb : loader.peek(path);
}
