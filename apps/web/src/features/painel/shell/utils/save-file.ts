/** Hands a downloaded file to the browser as a download. */
export function saveFile(file: { name: string; blob: Blob }) {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  URL.revokeObjectURL(url);
}
