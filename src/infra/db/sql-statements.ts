/**
 * Splits a SQL script (a migration file) into its statements, so each is sent as a query of its
 * own: Citus refuses some DDL on distributed tables (`CREATE INDEX`, `ADD FOREIGN KEY`) when it
 * comes in a multi-statement query, and one statement per query works on every engine.
 *
 * A `;` ends a statement only outside of what PostgreSQL's lexer reads as one token or comment:
 * single-quoted strings (`''` inside; `E'…'` also with backslash escapes), quoted identifiers
 * (`""` inside), dollar-quoted strings (`$$…$$`, `$tag$…$tag$`, e.g. function and `DO` bodies),
 * line comments (`-- …`) and block comments (`/* … *\/`, nested as PostgreSQL nests them), and
 * `BEGIN ATOMIC … END` bodies. Statements are returned trimmed, without their `;`; a piece that is
 * only whitespace and comments is dropped.
 */
export function splitSqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  /** Whether the current statement has anything but whitespace and comments. */
  let meaningful = false;
  /** Depth of `BEGIN ATOMIC` bodies open in the current statement (`;` inside one does not end it). */
  let atomicDepth = 0;
  /** The words of the current statement read so far, lower-cased (for `BEGIN ATOMIC … END`). */
  let previousWord = '';
  const n = script.length;
  let i = 0;

  const push = (end: number) => {
    const text = script.slice(start, end).trim();
    if (meaningful && text !== '') statements.push(text);
    start = end + 1;
    meaningful = false;
    atomicDepth = 0;
    previousWord = '';
  };

  while (i < n) {
    const c = script[i] as string;
    const next = script[i + 1];
    if (c === '-' && next === '-') {
      const end = script.indexOf('\n', i + 2);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] === '/' && script[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (script[i] === '*' && script[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      if (depth > 0) throw new SqlSplitError('unterminated block comment', script, start);
      continue;
    }
    if (c === "'") {
      const escaped = /[eE]/.test(script[i - 1] ?? '') && !isWordChar(script[i - 2]);
      i = endOfQuoted(script, i, "'", escaped);
      meaningful = true;
      previousWord = '';
      continue;
    }
    if (c === '"') {
      i = endOfQuoted(script, i, '"', false);
      meaningful = true;
      previousWord = '';
      continue;
    }
    if (c === '$' && !isWordChar(script[i - 1])) {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(script.slice(i, i + 64));
      if (tag) {
        const close = script.indexOf(tag[0], i + tag[0].length);
        if (close === -1)
          throw new SqlSplitError(`unterminated dollar-quoted string ${tag[0]}`, script, start);
        i = close + tag[0].length;
        meaningful = true;
        previousWord = '';
        continue;
      }
    }
    if (isWordStart(c) && !isWordChar(script[i - 1])) {
      let j = i + 1;
      while (j < n && isWordChar(script[j])) j++;
      const word = script.slice(i, j).toLowerCase();
      if (word === 'atomic' && previousWord === 'begin') atomicDepth++;
      else if (atomicDepth > 0 && word === 'case') atomicDepth++;
      else if (atomicDepth > 0 && word === 'end') atomicDepth--;
      previousWord = word;
      meaningful = true;
      i = j;
      continue;
    }
    if (c === ';' && atomicDepth === 0) {
      push(i);
      i++;
      continue;
    }
    if (!/\s/.test(c)) {
      meaningful = true;
      if (c !== ';') previousWord = '';
    }
    i++;
  }
  push(n);
  return statements;
}

/** A script whose quoting or comments never end: refused whole rather than cut in a wrong place. */
export class SqlSplitError extends Error {
  constructor(reason: string, script: string, at: number) {
    const line = script.slice(0, at).split('\n').length;
    super(`cannot split SQL script: ${reason} (statement from line ${line})`);
    this.name = 'SqlSplitError';
  }
}

function isWordStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_\u0080-\uffff]/.test(c);
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
}

/** The index just after the quoted token opened by `quote` at `open`. */
function endOfQuoted(script: string, open: number, quote: string, backslashes: boolean): number {
  let i = open + 1;
  while (i < script.length) {
    const c = script[i];
    if (backslashes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (script[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  throw new SqlSplitError(`unterminated ${quote === "'" ? 'string' : 'quoted identifier'}`, script, open);
}
