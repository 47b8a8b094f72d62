// What the status-bar item says. Pure: no `vscode` import.

/**
 * The end of a job, from the server's `advertest/jobEnded` notification
 * (requested from the server side; see README). Every field but `job` is
 * optional so that a partial notification still shows something.
 */
export interface JobEnded {
  job: string;
  /** "advertest.generateTests" | "advertest.analyzeMutants" | "onSave". */
  command?: string;
  /** The source file (a file: URI). */
  uri?: string;
  /** "done" | "canceled" | "failed". */
  status?: string;
  /** As the report JSON's "target". */
  target?: { class?: string; method?: string; signature?: string };
  /** killed / valid, null when no mutant is valid. */
  mutationScore?: number | null;
  lineCoverage?: number | null;
  branchCoverage?: number | null;
  mutants?: { valid?: number; killed?: number; survived?: number; likelyEquivalent?: number; ignored?: number };
  /** The generated test file (a file: URI), for generateTests. */
  testFile?: string | null;
  /** A one-line error for "failed". */
  message?: string;
}

/** The diagnostic fields the item counts. */
export interface DiagnosticLike {
  source?: string;
  code?: string | number | { value: string | number };
  /** VS Code's numbering: 0 Error, 1 Warning, 2 Information, 3 Hint. */
  severity?: number;
}

/** VS Code's DiagnosticSeverity.Hint: a survivor judged probably equivalent. */
export const SEVERITY_HINT = 3;

/** The surviving mutants of a file's diagnostics, and those of them judged probably equivalent (shown as hints). */
export interface SurvivorCount {
  survivors: number;
  likelyEquivalent: number;
}

/** Surviving mutants: the server's diagnostics other than possible bugs (ignored mutants have none). */
export function countSurvivors(diagnostics: readonly DiagnosticLike[]): SurvivorCount {
  const out = { survivors: 0, likelyEquivalent: 0 };
  for (const d of diagnostics) {
    if (d.source !== 'advertest') {
      continue;
    }
    const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
    if (code === 'possible-bug') {
      continue;
    }
    out.survivors++;
    if (d.severity === SEVERITY_HINT) {
      out.likelyEquivalent++;
    }
  }
  return out;
}

/** A ratio 0..1 as a whole percentage. */
export function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

export interface StatusText {
  text: string;
  tooltip: string;
}

/**
 * The item's text: the last job's mutation score when the server told it,
 * else the number of surviving mutants in the active file's diagnostics.
 */
export function statusText(last: JobEnded | undefined, activeFile: SurvivorCount | undefined): StatusText {
  const icon = '$(beaker)';
  if (last !== undefined) {
    const method = last.target?.method ?? 'method';
    if (last.status === 'failed') {
      return { text: `${icon} ${method}: failed`, tooltip: `AdverTest: ${last.message ?? 'the job failed'}` };
    }
    if (last.status === 'canceled') {
      return { text: `${icon} ${method}: canceled`, tooltip: 'AdverTest: the last job was canceled' };
    }
    const parts: string[] = [];
    if (typeof last.mutationScore === 'number') {
      parts.push(`mutation score ${percent(last.mutationScore)}`);
    } else if (last.mutationScore === null) {
      parts.push('no valid mutants');
    }
    if (typeof last.mutants?.survived === 'number') {
      const likely = last.mutants.likelyEquivalent ?? 0;
      parts.push(`${last.mutants.survived} surviving${likely > 0 ? ` (${likely} probably equivalent)` : ''}`);
    }
    if (typeof last.mutants?.ignored === 'number' && last.mutants.ignored > 0) {
      parts.push(`${last.mutants.ignored} ignored`);
    }
    if (typeof last.lineCoverage === 'number') {
      parts.push(`line coverage ${percent(last.lineCoverage)}`);
    }
    if (typeof last.branchCoverage === 'number') {
      parts.push(`branch coverage ${percent(last.branchCoverage)}`);
    }
    const score = typeof last.mutationScore === 'number' ? percent(last.mutationScore) : '–';
    const signature = last.target?.signature ?? method;
    return { text: `${icon} ${method}: ${score}`, tooltip: `AdverTest, ${signature}: ${parts.join(', ') || 'done'}` };
  }
  if (activeFile !== undefined && activeFile.survivors > 0) {
    const n = activeFile.survivors;
    const noun = n === 1 ? 'mutant survives' : 'mutants survive';
    const likely = activeFile.likelyEquivalent;
    const soft = likely > 0 ? ` (${likely} probably equivalent, shown as hints)` : '';
    return { text: `${icon} ${n} ${noun}`, tooltip: `AdverTest: surviving mutants in this file${soft} (Problems view)` };
  }
  return { text: `${icon} AdverTest`, tooltip: 'AdverTest: run "Analyze mutants" or "Generate adversarial tests" on a method' };
}

/** A $/progress value (begin, report or end). */
export interface ProgressValue {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
}

/** "AdverTest: `clamp`" → "clamp". */
export function shortTitle(title: string | undefined): string {
  const t = (title ?? '').replace(/^AdverTest:\s*/, '').replace(/`/g, '').trim();
  return t === '' ? 'AdverTest' : t;
}

/**
 * The item's text from a job's progress: a spinner while it runs; at the end
 * the mutation score when the end message carries one ("score 62% · 9 of 24
 * mutants survive"), else the message's first part ("canceled").
 */
export function progressStatus(title: string | undefined, value: ProgressValue): StatusText {
  const name = shortTitle(title);
  const message = value.message ?? '';
  const tooltip = `${title ?? 'AdverTest'}: ${message || value.kind}`;
  if (value.kind !== 'end') {
    const pct = typeof value.percentage === 'number' ? ` ${Math.round(value.percentage)}%` : '';
    return { text: `$(sync~spin) ${name}${pct}`, tooltip };
  }
  const score = /score (\d+(?:\.\d+)?)%/.exec(message);
  if (score !== null) {
    return { text: `$(beaker) ${name}: ${score[1]}%`, tooltip };
  }
  const first = message.split(' · ')[0].split(':')[0].trim();
  return { text: `$(beaker) ${name}: ${first || 'done'}`, tooltip };
}
