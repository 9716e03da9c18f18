import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import axe, { type AxeResults } from 'axe-core';

/** axe's source, loading itself only into a document that does not have it yet. */
const AXE_ONCE = `if (typeof window.axe?.runPartial !== 'function') {\n${axe.source}\n}`;

/**
 * Runs axe over a page and every frame in it, cross-origin ones included (`configure` picks rules).
 *
 * @axe-core/playwright gives each child frame one second to evaluate axe's half-megabyte source and,
 * past it, leaves the frame out of the results without a word. A cross-origin frame runs in a
 * renderer process of its own that compiles that source cold, which on a loaded host takes about
 * that long: the frame was analysed or not by chance. Here every frame evaluates it first, for as
 * long as it takes (the test's own timeout bounds it), and the builder's own injection finds axe
 * there and skips it.
 */
export async function analyzeWithFrames(page: Page, configure: (builder: AxeBuilder) => AxeBuilder = (builder) => builder): Promise<AxeResults> {
  for (const frame of page.frames()) await frame.evaluate(AXE_ONCE);
  return configure(new AxeBuilder({ page, axeSource: AXE_ONCE })).analyze();
}
