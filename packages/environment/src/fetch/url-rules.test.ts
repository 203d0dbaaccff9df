import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress } from './address-rules.js';
import { checkUrl, hostAllowList } from './url-rules.js';

describe('address rules', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['2002:7f00:1::', '6to4'],
  ])('classifies %s as %s, which is not public', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it('treats ordinary public addresses as public', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
  });
});

describe('checkUrl and the allow-list', () => {
  it('matches hosts, host:port and *. suffixes, case-insensitively', () => {
    const allowed = hostAllowList(['API.example.com', '127.0.0.1:8080', '*.corp', '[::1]']);
    expect(allowed('api.example.com', 443)).toBe(true);
    expect(allowed('127.0.0.1', 8080)).toBe(true);
    expect(allowed('127.0.0.1', 8081)).toBe(false);
    expect(allowed('db.corp', 80)).toBe(true);
    expect(allowed('corp', 80)).toBe(false);
    expect(allowed('::1', 80)).toBe(true);
  });

  it('canonicalises the host of every IPv4 spelling before judging it', () => {
    const allowLoopback = hostAllowList(['127.0.0.1']);
    for (const host of ['2130706433', '0x7f000001', '127.1', '0177.0.0.1']) {
      expect(checkUrl(`http://${host}/`, allowLoopback).hostname).toBe('127.0.0.1');
    }
  });

  it('refuses URLs carrying credentials', () => {
    expect(() => checkUrl('http://user:pass@example.com/', () => false)).toThrow(/credentials/);
  });
});
