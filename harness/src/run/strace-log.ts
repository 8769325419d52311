/**
 * strace's log of a process tree (`strace -f -o FILE`, one file, lines prefixed by the pid) read
 * as whole system calls: a call another process interrupted (`<unfinished ...>`) is joined with
 * its `<... name resumed>` line. Pure: the text in, the calls out, in the order they finished.
 * Read by the file trace (parse-file-trace.ts) and by the harness transcript (pairs/harness-shift).
 */

/** One system call as strace printed it. */
export interface SysCall {
  readonly pid: number;
  readonly name: string;
  /** Everything between the call's parentheses, as printed. */
  readonly args: string;
  /** What follows `=`: "0", "12345", "-1 ENOENT (No such file or directory)". */
  readonly result: string;
  /** When it returned, in seconds since the epoch, when strace printed it (`-ttt`). */
  readonly time?: number;
}

// Each line: the pid, then (with -ttt) the time, then the call.
const WHOLE = /^(\d+) +(?:(\d+\.\d+) +)?([a-z_0-9]+)\((.*)\) += (.*)$/;
const UNFINISHED = /^(\d+) +(?:\d+\.\d+ +)?([a-z_0-9]+)\((.*?) *<unfinished \.\.\.>$/;
const RESUMED = /^(\d+) +(?:(\d+\.\d+) +)?<\.\.\. ([a-z_0-9]+) resumed>(.*)\) += (.*)$/;
const GONE = /^(\d+) +(?:(\d+\.\d+) +)?\+\+\+ (?:exited with|killed by) /;

/**
 * The name given to a task's end (`+++ exited with 0 +++`, `+++ killed by SIGKILL +++`, printed
 * unless strace runs with -qq): after it, its id may be another task's (ids wrap at pid_max).
 */
export const GONE_CALL = '+++gone';

/**
 * The calls of a log, and each task's end as a call named GONE_CALL; other lines (signals,
 * strace's own notes) are skipped.
 */
const at = (time: string | undefined) => (time === undefined ? {} : { time: Number(time) });

export function readStraceLog(text: string): SysCall[] {
  const calls: SysCall[] = [];
  const pending = new Map<number, { name: string; args: string }>();
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const gone = GONE.exec(line);
    if (gone) {
      pending.delete(Number(gone[1]));
      calls.push({ pid: Number(gone[1]), name: GONE_CALL, args: '', result: '', ...at(gone[2]) });
      continue;
    }
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const pid = Number(resumed[1]);
      const start = pending.get(pid);
      pending.delete(pid);
      if (start && start.name === resumed[3])
        calls.push({
          pid,
          name: start.name,
          args: `${start.args}${resumed[4]}`,
          result: resumed[5] ?? '',
          ...at(resumed[2]),
        });
      continue;
    }
    const unfinished = UNFINISHED.exec(line);
    if (unfinished) {
      pending.set(Number(unfinished[1]), { name: unfinished[2] ?? '', args: unfinished[3] ?? '' });
      continue;
    }
    const whole = WHOLE.exec(line);
    if (whole)
      calls.push({
        pid: Number(whole[1]),
        name: whole[3] ?? '',
        args: whole[4] ?? '',
        result: whole[5] ?? '',
        ...at(whole[2]),
      });
  }
  return calls;
}

/**
 * The succeeded call's return value as a number ("12345" -> 12345), or undefined for an error. A
 * process id from inside a PID namespace (a sandbox) is the one strace translated to its own
 * (`--pidns-translation`: "2 /* 4328 in strace's PID NS *\/" -> 4328), as the log's prefixes are.
 */
export function returned(call: SysCall): number | undefined {
  return call.result.startsWith('-1 ') ? undefined : pidNumber(call.result);
}

/** A number as printed, translated to strace's PID namespace when strace says so. */
export function pidNumber(printed: string): number | undefined {
  const translated = /^-?\d+ \/\* (\d+) in strace's PID NS \*\//.exec(printed);
  if (translated) return Number(translated[1]);
  const m = /^(-?\d+)\b/.exec(printed);
  return m ? Number(m[1]) : undefined;
}

/**
 * The values strace prints as arguments, read left to right: C strings ("a\"b"), arrays of them
 * (["a", "b"]) and anything else up to the next top-level comma, as printed.
 */
export type ArgValue = string | readonly string[];

export function splitArgs(args: string): ArgValue[] {
  const out: ArgValue[] = [];
  let i = 0;
  const skipSpace = () => {
    while (args[i] === ' ') i++;
  };
  while (i < args.length) {
    skipSpace();
    if (args[i] === '"') {
      const [s, next] = cString(args, i);
      out.push(s);
      i = next;
    } else if (args[i] === '[' && /^\[\s*("|\])/.test(args.slice(i, i + 3))) {
      // An array of strings (argv, envp); another array (a CPU set: [0 1]) is kept as printed below.
      const items: string[] = [];
      i++;
      skipSpace();
      while (i < args.length && args[i] !== ']') {
        if (args[i] === '"') {
          const [s, next] = cString(args, i);
          items.push(s);
          i = next;
        } else i++;
        skipSpace();
        if (args[i] === ',') i++;
        skipSpace();
      }
      i++;
      out.push(items);
    } else {
      let depth = 0;
      const start = i;
      while (i < args.length && !(depth === 0 && args[i] === ',')) {
        if ('{[('.includes(args[i] ?? '')) depth++;
        else if ('}])'.includes(args[i] ?? '')) depth--;
        i++;
      }
      out.push(args.slice(start, i).trim());
    }
    // A string strace cut at its -s limit ends in "..." after the quote.
    if (args.startsWith('...', i)) i += 3;
    skipSpace();
    if (args[i] === ',') i++;
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', '"': '"', '\\': '\\' };

/** A C string literal at `at` (its opening quote) -> its value and the index after the closing quote. */
function cString(s: string, at: number): [string, number] {
  let out = '';
  let i = at + 1;
  while (i < s.length && s[i] !== '"') {
    if (s[i] === '\\') {
      const c = s[i + 1] ?? '';
      if (c === 'x') {
        out += String.fromCharCode(Number.parseInt(s.slice(i + 2, i + 4), 16));
        i += 4;
      } else if (/[0-7]/.test(c)) {
        const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1))?.[0] ?? '0';
        out += String.fromCharCode(Number.parseInt(oct, 8));
        i += 1 + oct.length;
      } else {
        out += ESCAPES[c] ?? c;
        i += 2;
      }
    } else out += s[i++];
  }
  return [out, i + 1];
}
