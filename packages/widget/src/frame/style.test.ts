import { describe, expect, it } from 'vitest';
import { inputStyle, placeholderVariables } from './style.ts';

const STYLE = {
  base: { color: '#111111', fontSize: '14px', fontFamily: '"Helvetica Neue", Arial' },
  focus: { color: '#0000aa' },
  invalid: { color: '#aa0000' },
  placeholder: { color: '#555555', fontStyle: 'italic' },
};

describe('inputStyle', () => {
  it('layers focus then invalid over base', () => {
    expect(inputStyle(STYLE, { focused: false, invalid: false }).color).toBe('#111111');
    expect(inputStyle(STYLE, { focused: true, invalid: false }).color).toBe('#0000aa');
    expect(inputStyle(STYLE, { focused: true, invalid: true }).color).toBe('#aa0000');
  });

  it('never lets text go below 16px', () => {
    expect(inputStyle(STYLE, { focused: false, invalid: false }).fontSize).toBe('max(16px, 14px)');
    expect(inputStyle({}, { focused: false, invalid: false }).fontSize).toBeUndefined();
  });
});

describe('placeholderVariables', () => {
  it('turns placeholder declarations into custom properties for frame.css', () => {
    expect(placeholderVariables(STYLE)).toEqual({ '--pf-placeholder-color': '#555555', '--pf-placeholder-font-style': 'italic' });
  });
});
