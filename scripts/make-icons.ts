/** `npx tsx scripts/make-icons.ts`: (re)writes the icons in public/ from scripts/icons.ts. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/shared';
import { iconFiles } from './icons';

for (const [name, content] of Object.entries(await iconFiles())) {
  writeFileSync(join(REPO_ROOT, 'public', name), content);
  console.log(`public/${name}`);
}
