/** Saves bytes as a file through the browser's download machinery (Blob + <a download>). */
export function downloadBytes(
  fileName: string,
  bytes: Uint8Array<ArrayBuffer>,
  type = 'application/zip',
): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: revoking synchronously can cancel the download in some engines.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
