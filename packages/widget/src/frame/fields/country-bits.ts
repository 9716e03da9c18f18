// Two-letter codes as a bitmap over AA…ZZ, one bit per code in alphabetical order, written in hex.

const LETTERS = 26;

const codeAt = (index: number) => String.fromCharCode(65 + Math.floor(index / LETTERS), 65 + (index % LETTERS));

export function encodeCountries(codes: readonly string[]): string {
  let hex = '';
  for (let nibble = 0; nibble * 4 < LETTERS * LETTERS; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) value = (value << 1) | (codes.includes(codeAt(nibble * 4 + bit)) ? 1 : 0);
    hex += value.toString(16);
  }
  return hex;
}

export function decodeCountries(hex: string): string[] {
  const codes: string[] = [];
  for (let index = 0; index < LETTERS * LETTERS; index++) {
    if ((parseInt(hex[index >> 2] ?? '0', 16) >> (3 - (index & 3))) & 1) codes.push(codeAt(index));
  }
  return codes;
}
