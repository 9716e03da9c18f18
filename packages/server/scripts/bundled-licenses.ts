import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `…/node_modules/@scope/name/lib/x.js` → `…/node_modules/@scope/name`: the innermost package an input belongs to. */
function packageDirOf(input: string): string | null {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1] ?? null;
}

/**
 * The notice of every third-party package bundled into the CLI: its name, version, licence and the
 * text of its licence file, which the MIT, ISC and BSD licences ask to keep with copies of the code.
 */
export function bundledLicenses(root: string, inputs: string[]): string {
  const dirs = [...new Set(inputs.map(packageDirOf).filter((dir): dir is string => dir !== null))];
  const sections = dirs
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
      const licenseFile = existsSync(join(root, dir)) ? readdirSync(join(root, dir)).find((name) => /^(licen[cs]e|copying)/i.test(name)) : undefined;
      const text = licenseFile
        ? readFileSync(join(root, dir, licenseFile), 'utf8').trim()
        : `(no licence file; package.json says ${manifest.license ?? 'nothing'})`;
      return {
        title: `${manifest.name}@${manifest.version}`,
        body: `## ${manifest.name}@${manifest.version} (${manifest.license ?? 'unknown'})\n\n\`\`\`\n${text}\n\`\`\`\n`,
      };
    })
    .sort((a, b) => a.title.localeCompare(b.title));
  const unique = sections.filter((section, index) => sections.findIndex((other) => other.title === section.title) === index);
  return `# Third-party code in dist/cli.cjs\n\nThe CLI is one bundled file; these packages are part of it.\n\n${unique.map((section) => section.body).join('\n')}`;
}
