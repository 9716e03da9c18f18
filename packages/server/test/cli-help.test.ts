import { readFileSync } from 'node:fs';
import { runCli } from '@payframe/server/process';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The first ```sh block after the README's "## CLI" heading: the synopsis a reader copies from. */
function readmeSynopsis(): string {
  const section = readme.split(/^## CLI$/m)[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README has no ```sh block under "## CLI"');
  return block.trimEnd();
}

describe('payframe --help', () => {
  it('prints the synopsis the README shows, line for line', async () => {
    const { stdout } = await runCli(['--help']);
    const usage = stdout.split('\n\n')[0] ?? '';
    expect(usage.startsWith('Usage:\n')).toBe(true);
    const lines = usage
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^ {2}/, ''));
    expect(readmeSynopsis()).toBe(lines.join('\n'));
  });
});

describe('payframe COMMAND --help', () => {
  it.each(['serve', 'keys', 'users', 'listen', 'seed', 'trigger', 'backup', 'restore'])('prints the usage of %s alone, and exits 0', async (command) => {
    // runCli rejects on a non-zero exit.
    const { stdout } = await runCli([command, '--help']);
    const lines = stdout.split('\n\n')[0]!.split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith('  payframe ')).every((line) => line.startsWith(`  payframe ${command} `))).toBe(true);
  });

  it('lists every environment variable of serve, each with the flag that wins over it', async () => {
    const { stdout } = await runCli(['serve', '--help']);
    const environment = stdout.split('Environment (a flag wins over its variable):\n')[1] ?? '';
    // docs/operations.md's table of variables is what a reader without the help would look at.
    const documented = [...readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').matchAll(/^\| [^|]*\| `([A-Z][A-Z_]+)`/gm)].map(
      (match) => match[1],
    );
    expect(documented.length).toBeGreaterThan(10);
    for (const variable of documented) expect(environment, variable).toMatch(new RegExp(`\\b${variable}\\b`));
    expect(environment).toContain('PORT (--port)');
    expect(environment).toContain('PAYFRAME_REQUEST_LOG (--request-log)');
  });

  it('takes -h after a subcommand too', async () => {
    const { stdout } = await runCli(['keys', 'create', '-h']);
    expect(stdout).toContain('payframe keys create --account NAME --mode test|live');
  });
});
