import { describe, expect, it } from 'vitest';
import { safeNextPath } from './require-auth.tsx';

describe('safeNextPath', () => {
  it('follows only same-site paths', () => {
    expect(safeNextPath('/user/pedidos?x=1')).toBe('/user/pedidos?x=1');
    expect(safeNextPath(null)).toBe('/');
    expect(safeNextPath('https://evil.example/')).toBe('/');
    expect(safeNextPath('//evil.example/')).toBe('/');
    expect(safeNextPath('/\\evil.example')).toBe('/');
  });
});
