/**
 * The commands of src/cli (docs/architecture.md, "Layout"): each `*-command.ts` registers
 * itself with `register(program, io)` (its flags, help, action and exit codes), program.ts
 * lists every one of them, and no command file imports another: what two commands share lives
 * in a module of its own (options.ts, pipeline.ts, apply-flow.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { importGraph, type ImportGraph } from './import-graph';

const CLI = path.join(__dirname, '..', '..', 'src', 'cli');
const isCommand = (file: string) => /-command\.ts$/.test(file);
const COMMAND_FILES = readdirSync(CLI).filter(isCommand).sort();

/** The command files whose text declares no exported `register(program, io)`. */
function withoutRegister(texts: ReadonlyMap<string, string>): string[] {
  const REGISTER = /^export (?:async )?function register\(\s*program: Command,\s*_?io: CliIO\s*\): void/m;
  return [...texts].filter(([, text]) => !REGISTER.test(text)).map(([file]) => file);
}

/** `a -> b` for each command file that imports another command file. */
function commandImports(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, targets]) =>
    isCommand(file) ? [...targets].filter(isCommand).map((t) => `${file} -> ${t}`) : [],
  );
}

test('GIVEN src/cli THEN it has command files', () => {
  expect(COMMAND_FILES.length).toBeGreaterThan(10);
});

test('GIVEN each src/cli/*-command.ts THEN it exports register(program: Command, io: CliIO)', () => {
  const texts = new Map(COMMAND_FILES.map((f) => [f, readFileSync(path.join(CLI, f), 'utf8')]));
  expect(withoutRegister(texts)).toEqual([]);
});

test('GIVEN the command files THEN none imports another', () => {
  expect(commandImports(importGraph(CLI))).toEqual([]);
});

test('GIVEN program.ts THEN it lists every command file', () => {
  const program = readFileSync(path.join(CLI, 'program.ts'), 'utf8');
  const listed = COMMAND_FILES.filter((f) => program.includes(`from './${f.replace(/\.ts$/, '')}'`));
  expect(listed).toEqual(COMMAND_FILES);
});

test('GIVEN a command without register or importing another THEN the checks see it (they can fail)', () => {
  const texts = new Map([
    ['a-command.ts', 'export function register(program: Command, io: CliIO): void {}'],
    ['b-command.ts', 'export function registerB(program: Command): void {}'],
  ]);
  expect(withoutRegister(texts)).toEqual(['b-command.ts']);
  const graph = new Map([
    ['a-command.ts', new Set(['pipeline.ts'])],
    ['b-command.ts', new Set(['a-command.ts', 'options.ts'])],
  ]);
  expect(commandImports(graph)).toEqual(['b-command.ts -> a-command.ts']);
});
