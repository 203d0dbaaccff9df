import { describe, expect, it } from 'vitest';
import { defaultAllowedHosts, defaultAllowedOrigins, isLoopback, isWildcard } from './http-guard.js';

describe('the HTTP guard defaults', () => {
  it('allows every loopback name on a loopback bind, and only the bound name otherwise', () => {
    expect(defaultAllowedHosts('127.0.0.1', 8080)).toEqual([
      '127.0.0.1:8080',
      'localhost:8080',
      '[::1]:8080',
    ]);
    expect(defaultAllowedHosts('::1', 9)).toEqual(['[::1]:9', '127.0.0.1:9', 'localhost:9']);
    expect(defaultAllowedHosts('10.0.0.5', 80)).toEqual(['10.0.0.5:80']);
    expect(defaultAllowedOrigins(['localhost:1'])).toEqual(['http://localhost:1']);
  });

  it("allows the machine's own addresses and the loopback names on a wildcard bind", () => {
    const addresses = () => ['127.0.0.1', '::1', '192.0.2.2', 'fd00::2'];
    expect(defaultAllowedHosts('0.0.0.0', 80, addresses)).toEqual([
      '0.0.0.0:80',
      '127.0.0.1:80',
      'localhost:80',
      '192.0.2.2:80',
    ]);
    expect(defaultAllowedHosts('::', 80, addresses)).toEqual([
      '[::]:80',
      '127.0.0.1:80',
      'localhost:80',
      '[::1]:80',
      '192.0.2.2:80',
      '[fd00::2]:80',
    ]);
    expect(['0.0.0.0', '::', '[::]'].every(isWildcard)).toBe(true);
    expect(['127.0.0.1', '10.0.0.1', '::1'].some(isWildcard)).toBe(false);
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', 'example.com'].some(isLoopback)).toBe(false);
  });
});
