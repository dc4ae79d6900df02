import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toCsv } from './csv.ts';

describe('toCsv (RFC 4180, API.md 7.3)', () => {
  it('quotes every text field, doubles quotes, ends every record with CRLF', () => {
    assert.equal(
      toCsv(
        ['a', 'b'],
        [
          ['plain', 'with, comma'],
          ['say "hi"', 'two\nlines'],
          ['', null],
          ['李小龍', 'Ørjan'],
          ['cr\rhere', 'crlf\r\nhere'],
        ],
      ),
      '"a","b"\r\n"plain","with, comma"\r\n"say ""hi""","two\nlines"\r\n"",\r\n"李小龍","Ørjan"\r\n' +
        '"cr\rhere","crlf\r\nhere"\r\n',
    );
  });

  it('defuses fields a spreadsheet would run as formulas', () => {
    assert.equal(
      toCsv(['x'], [['=1+1'], ['+1'], ['-2'], ['@SUM(A1)'], ['\t=1'], ['a=b']]),
      `"x"\r\n"'=1+1"\r\n"'+1"\r\n"'-2"\r\n"'@SUM(A1)"\r\n"'\t=1"\r\n"a=b"\r\n`,
    );
  });

  it('keeps a semicolon-separated formula inside its quoted cell', () => {
    // A spreadsheet splitting on `;` would otherwise read `=1+1` as a cell of its own.
    const csv = toCsv(['name'], [['x;=1+1'], ['Ana;+SUM(A1)']]);
    assert.equal(csv, '"name"\r\n"x;=1+1"\r\n"Ana;+SUM(A1)"\r\n');
    for (const line of csv.trimEnd().split('\r\n').slice(1)) {
      // Split as a `;` spreadsheet does, honouring quotes: one cell per record.
      const cells = line.match(/("([^"]|"")*"|[^;]*)(;|$)/g)?.filter((c) => c !== '') ?? [];
      assert.equal(cells.length, 1, line);
    }
  });
});
