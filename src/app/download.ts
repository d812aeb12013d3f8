/**
 * Downloads made in the page (nothing leaves the machine): a Blob URL clicked through a
 * temporary <a download>, revoked a little later so the download has time to start.
 */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type = 'text/plain;charset=utf-8'): void {
  downloadBlob(name, new Blob([text], { type }));
}
