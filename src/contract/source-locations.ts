/**
 * Where each construct of the app is declared, for `ncalc drift --suggest`: it turns drift
 * into an edit of the app's source and needs the `new Alert(...)` that made each alert.
 * Recorded only when `ncalc` asks for it through the environment (a stack trace per
 * construct costs time a plain synth does not spend), and written when the app exits, into
 * the file ncalc names (src/contract/handoff.ts).
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IConstruct } from 'constructs';
import type { Environment } from '../public-types';
import { isObject } from '../support/json';
import { AppHandoff } from './handoff';

/** One construct's declaration: the first stack frame outside this package and node_modules. */
export interface SourceLocation {
  /** Construct path, e.g. `alerts/WwwA`. */
  path: string;
  /** `Alert`, `AlertPolicy`, `NetworkcalcAccount`, … */
  kind: string;
  /** Absolute file name as the stack trace gave it (source-mapped by tsx / --enable-source-maps). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The account's provider alias (NetworkcalcAccount only). */
  alias?: string | null;
  /**
   * The app's outer call sites, innermost first (the `new AccountStack(app, 'prod')` that ran
   * the constructor holding the `new NetworkcalcAccount`): where code shared by several stacks
   * was called for this one. Absent when there are none in the trace.
   */
  callers?: Frame[];
}

export type Frame = Pick<SourceLocation, 'file' | 'line' | 'column'>;

const isFrame = (v: unknown): v is Record<string, unknown> & Frame =>
  isObject(v) && typeof v.file === 'string' && Number.isInteger(v.line) && Number.isInteger(v.column);

/** Set by `ncalc` when it needs them: the file the app writes `{"locations": SourceLocation[]}` to. */
export const SOURCE_LOCATIONS = new AppHandoff<SourceLocation>('NCALC_SOURCE_LOCATIONS_FILE', 'locations', (l) =>
  !isFrame(l) ||
  typeof l.path !== 'string' ||
  typeof l.kind !== 'string' ||
  (l.callers !== undefined && !(Array.isArray(l.callers) && l.callers.every(isFrame)))
    ? null
    : {
        path: l.path,
        kind: l.kind,
        file: l.file,
        line: l.line,
        column: l.column,
        ...(l.alias !== undefined ? { alias: typeof l.alias === 'string' ? l.alias : null } : {}),
        ...(Array.isArray(l.callers)
          ? { callers: (l.callers as Frame[]).map(({ file, line, column }) => ({ file, line, column })) }
          : {}),
      },
);

export const SOURCE_LOCATIONS_ENV = SOURCE_LOCATIONS.variable;

/** The locations of a file's text written by an app; null when it is not one. */
export function parseSourceLocations(text: string): SourceLocation[] | null {
  return SOURCE_LOCATIONS.parse(text);
}

// This package's own code (src/ or dist/): frames there are ours, not the app's.
const OWN_CODE = path.resolve(__dirname, '..') + path.sep;
const FRAME = /\(?((?:file:\/\/)?[^()\s]+):(\d+):(\d+)\)?\s*$/;

/** The frames of `stack` in the app's own code, innermost first. */
export function appFrames(stack: string): Frame[] {
  const frames: Frame[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    let file = m[1];
    if (file.startsWith('file://')) file = fileURLToPath(file);
    if (!path.isAbsolute(file) || file.startsWith(OWN_CODE) || file.split(path.sep).includes('node_modules')) continue;
    frames.push({ file, line: Number(m[2]), column: Number(m[3]) });
  }
  return frames;
}

function stackOf(frames: number): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frames;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack;
}

const recorded: { construct: IConstruct; frames: Frame[] }[] = [];
let target: string | undefined;
/** Each file name once: a name cut from a stack trace keeps the whole trace alive in V8. */
const fileNames = new Map<string, string>();

function fileName(file: string): string {
  let own = fileNames.get(file);
  if (own === undefined) {
    own = Buffer.from(file, 'utf8').toString('utf8');
    fileNames.set(own, own);
  }
  return own;
}

/** Called by every construct of this package as it is made; does nothing unless ncalc asked. */
export function recordSourceLocation(construct: IConstruct, env: Environment = process.env): void {
  const file = SOURCE_LOCATIONS.fileIn(env);
  if (!file) return;
  // A short trace is enough for a construct made in the app's code; an L3 construct of a
  // library may sit deeper, so a longer one is taken only when the short one finds no frame.
  let frames = appFrames(stackOf(12));
  if (!frames.length) frames = appFrames(stackOf(64));
  if (!frames.length) return;
  if (target === undefined) process.once('exit', () => writeSourceLocations(file));
  target = file;
  recorded.push({ construct, frames: frames.map((f) => ({ file: fileName(f.file), line: f.line, column: f.column })) });
}

function writeSourceLocations(file: string): void {
  SOURCE_LOCATIONS.write(
    file,
    recorded.map(({ construct, frames }) => {
      const alias = (construct as { alias?: unknown }).alias;
      return {
        path: construct.node.path,
        kind: construct.constructor.name,
        ...frames[0],
        ...(typeof alias === 'string' || construct.constructor.name === 'NetworkcalcAccount'
          ? { alias: typeof alias === 'string' ? alias : null }
          : {}),
        ...(frames.length > 1 ? { callers: frames.slice(1) } : {}),
      };
    }),
  );
}
