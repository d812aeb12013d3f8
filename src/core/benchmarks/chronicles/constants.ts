/** Scripts, tasks and their keys, as the official code and the spec name them. */

export type TaskId = 'classification' | 'parsing' | 'spotting' | 'recognition';
export type Group = 'ancient' | 'modern';

export interface ScriptInfo {
  /** The name in the data files (`font_type`). */
  name: string;
  /** The metric key: oracle_bone, bronze, … */
  key: string;
  english: string;
  group: Group;
}

/** In the official summary's order. */
export const SCRIPTS: readonly ScriptInfo[] = [
  { name: '甲骨文', key: 'oracle_bone', english: 'Oracle Bone', group: 'ancient' },
  { name: '金文', key: 'bronze', english: 'Bronze', group: 'ancient' },
  { name: '篆书', key: 'seal', english: 'Seal', group: 'ancient' },
  { name: '隶书', key: 'clerical', english: 'Clerical', group: 'modern' },
  { name: '楷书', key: 'regular', english: 'Regular', group: 'modern' },
  { name: '行书', key: 'running', english: 'Running', group: 'modern' },
  { name: '草书', key: 'cursive', english: 'Cursive', group: 'modern' },
];

export const SCRIPT_BY_NAME = new Map(SCRIPTS.map((s) => [s.name, s]));
export const SCRIPT_NAMES: readonly string[] = SCRIPTS.map((s) => s.name);

/** The task keys in result files, in the official ALL_TASKS order. */
export const TASK_KEYS: Record<TaskId, string> = {
  classification: '字体分类',
  parsing: '字符提取',
  spotting: '字符检测',
  recognition: '单字识别',
};

export const ANCIENT_TASKS: readonly TaskId[] = ['classification', 'parsing', 'spotting', 'recognition'];
export const MODERN_TASKS: readonly TaskId[] = ['classification', 'parsing'];

/** The summary's display order (Detection is a diagnostic, never displayed there). */
export const DISPLAY_TASKS: readonly TaskId[] = ['spotting', 'recognition', 'parsing', 'classification'];

export const IOU_THRESHOLD = 0.75;

/** Official `tasks_for_row`: the 4 tasks for an ancient script, else classification + parsing. */
export function tasksFor(fontType: string): readonly TaskId[] {
  return SCRIPT_BY_NAME.get(fontType)?.group === 'ancient' ? ANCIENT_TASKS : MODERN_TASKS;
}
