/**
 * RFC 4180 CSV (API.md 7.3): CRLF between records, every text field quoted, quotes inside doubled.
 * Quoting every field, not only those holding a comma, keeps a spreadsheet whose list separator is
 * `;` (Excel in Spanish or Portuguese) from splitting `x;=1+1` and reading `=1+1` as a formula. A
 * field a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR: OWASP
 * "CSV injection") is also prefixed with `'`, since guests type the names. An absent value (null)
 * is an empty, unquoted field.
 */
export function toCsv(
  header: readonly string[],
  records: ReadonlyArray<ReadonlyArray<string | null>>,
): string {
  return `${[header, ...records].map((record) => record.map(csvField).join(',')).join('\r\n')}\r\n`;
}

function csvField(value: string | null): string {
  if (value === null) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}
