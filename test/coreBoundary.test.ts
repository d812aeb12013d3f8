/**
 * The core cannot import the layers above it: these checks run the real lint rule and the real
 * core tsconfig on a would-be core file, so breaking the rule fails `npm test`.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './shared';

async function lintAsCore(code: string) {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, 'src/core/benchmarks/probe.ts') });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the core boundary', () => {
  it('rejects React, Konva, Dexie, Comlink, Node and app imports in src/core', async () => {
    for (const spec of ['react', 'react-konva', 'dexie', 'comlink', 'node:fs', '../../app/App', '../../worker/client']) {
      const messages = await lintAsCore(`import * as x from '${spec}';\nexport const y = x;\n`);
      expect(messages, spec).toHaveLength(1);
    }
  });

  it('accepts imports inside the core', async () => {
    expect(await lintAsCore(`import { boxIoU } from '../geometry/box';\nexport const f = boxIoU;\n`)).toEqual([]);
  });

  it('type-checks the core without the DOM: document is unknown there', () => {
    const dir = mkdtempSync(join(REPO_ROOT, 'node_modules/.core-probe-'));
    try {
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'src/probe.ts'), 'export const t = document.title;\n');
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: join(REPO_ROOT, 'tsconfig.core.json'),
          compilerOptions: { composite: false, noEmit: true, emitDeclarationOnly: false, tsBuildInfoFile: null },
          include: [join(dir, 'src/probe.ts'), join(REPO_ROOT, 'src/core/platform.d.ts')],
        }),
      );
      let out = '';
      try {
        execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      } catch (e) {
        out = String((e as { stdout?: string }).stdout);
      }
      expect(out).toMatch(/Cannot find name 'document'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
