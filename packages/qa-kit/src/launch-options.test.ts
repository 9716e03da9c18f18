import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromiumLaunchOptions } from './launch-options.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('chromiumLaunchOptions', () => {
  it('takes the browser from CHROMIUM_PATH before the default it is given', () => {
    vi.stubEnv('CHROMIUM_PATH', '/opt/chromium/chrome');
    expect(chromiumLaunchOptions({ defaultExecutablePath: '/usr/bin/chromium' }).executablePath).toBe('/opt/chromium/chrome');
  });

  it('falls back to the default, then to Playwright’s own browser', () => {
    vi.stubEnv('CHROMIUM_PATH', '');
    expect(chromiumLaunchOptions({ defaultExecutablePath: '/usr/bin/chromium' }).executablePath).toBe('/usr/bin/chromium');
    expect(chromiumLaunchOptions()).not.toHaveProperty('executablePath');
  });

  it('turns the sandbox off only for root, where Chromium will not start with it', () => {
    vi.spyOn(process, 'getuid').mockReturnValue(0);
    expect(chromiumLaunchOptions().args).toContain('--no-sandbox');
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(chromiumLaunchOptions().args).not.toContain('--no-sandbox');
  });
});
