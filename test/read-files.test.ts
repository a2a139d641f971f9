/**
 * Reading files named by a caller: JSON syntax errors say where, never quote the file; parsed files are
 * kept by content (an edited file is parsed again) and the memo is bounded.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMemo } from '../src/read/file-memo.ts';
import { memoStats } from '../src/model/memo.ts';
import { loadJsonWith, parseJsonFile } from '../src/read/files.ts';
import { InputError } from '../src/model/errors.ts';
import { tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

const problemOf = (text: string): string => {
  try {
    parseJsonFile(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problem;
  }
  throw new Error('parsed');
};

describe('parseJsonFile', () => {
  it('says where the syntax breaks, without quoting the text', () => {
    expect(problemOf('{\n  "a": "secret value" "b"\n}')).toBe(
      "invalid JSON (line 2, column 23: Expected ',' or '}' after property value)",
    );
    expect(problemOf('root:x:0:0:root:/root:/bin/bash\n')).toBe('invalid JSON (unexpected text)');
    expect(problemOf('{"password": hunter2}')).toBe('invalid JSON (unexpected text)');
    expect(problemOf('undefined')).toBe('invalid JSON (unexpected text)');
    expect(problemOf('[1, 2')).toBe(
      "invalid JSON (line 1, column 6: Expected ',' or ']' after array element)",
    );
    expect(problemOf('')).toBe('invalid JSON (unexpected end of input)');
    expect(parseJsonFile('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('attributes the error to the file', () => {
    const file = tmp.file('secret.json');
    writeFileSync(file, 'token=abc123\n');
    expect(() => loadJsonWith(file, (json) => json)).toThrow(`${file}: invalid JSON (unexpected text)`);
  });
});

describe('FileMemo', () => {
  it('parses a file again when its content changed, and only then', () => {
    const memo = new FileMemo<{ text: string }>('test-files');
    const file = tmp.file('memo.txt');
    let parses = 0;
    const parse = (text: string) => ({ text, parse: ++parses });
    writeFileSync(file, 'aaaa');
    const first = memo.load(file, parse);
    expect(memo.load(file, parse)).toBe(first);
    writeFileSync(file, 'bbbb'); // same size, same clock tick
    expect(memo.load(file, parse).text).toBe('bbbb');
    expect(parses).toBe(2);
  });

  it('keeps at most its number of files and its total of text', () => {
    const memo = new FileMemo<{ text: string }>('test-files-3', 3, 10);
    for (let i = 0; i < 6; i++) {
      writeFileSync(tmp.file(`f${i}.txt`), `${i}${i}`);
      memo.load(tmp.file(`f${i}.txt`), (text) => ({ text }));
    }
    expect(memo.size).toBe(3);
    writeFileSync(tmp.file('big.txt'), 'x'.repeat(11));
    expect(memo.load(tmp.file('big.txt'), (text) => ({ text })).text).toHaveLength(11);
    expect(memo.size).toBe(3);
    const sized = new FileMemo<{ text: string }>('test-files-10', 10, 10);
    for (let i = 0; i < 6; i++) sized.load(tmp.file(`f${i}.txt`), (text) => ({ text }));
    expect(sized.size).toBe(5); // 2 characters each, 10 in all
    // Listed with the process's other caches, and what it holds.
    expect(memoStats()['test-files-10']).toEqual({ entries: 5, bytes: 10 });
  });
});
