/** SPEC.md section 9: MB when over 1 MB, else KB, with two decimals. */
export function formatFileSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb > 1 ? `${mb.toFixed(2)} MB` : `${(bytes / 1024).toFixed(2)} KB`;
}
