import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toCsv } from './csv.ts';

describe('toCsv (RFC 4180)', () => {
  it('quotes only fields that need it, doubles quotes, ends every record with CRLF', () => {
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
      'a,b\r\nplain,"with, comma"\r\n"say ""hi""","two\nlines"\r\n,\r\n李小龍,Ørjan\r\n"cr\rhere","crlf\r\nhere"\r\n',
    );
  });

  it('defuses fields a spreadsheet would run as formulas', () => {
    assert.equal(
      toCsv(['x'], [['=1+1'], ['+1'], ['-2'], ['@SUM(A1)'], ['a=b']]),
      "x\r\n'=1+1\r\n'+1\r\n'-2\r\n'@SUM(A1)\r\na=b\r\n",
    );
  });
});
