// CSV that people open in spreadsheets: a cell starting like a formula (=, +, -, @, tab, CR) would
// be run by Excel, LibreOffice or Sheets (`=HYPERLINK(...)` in a scanned code's text, say), so such
// text gets a leading apostrophe, which the spreadsheet shows as plain text (OWASP's CSV injection advice).
export const defuseFormula = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
