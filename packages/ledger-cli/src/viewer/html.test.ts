import { describe, expect, it } from 'vitest';
import { embeddedJson, renderPage } from './html.js';

const hostile = '</script><script>alert(1)</script><!-- \u2028 & <img src=x onerror=alert(2)>';
const assets = { script: 'console.log(1)', styles: 'body{}' };

describe('the page html', () => {
  it('embeds ledger data so that no record can close the data element or open another', () => {
    const embedded = embeddedJson({ text: hostile });
    expect(embedded).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(embedded)).toEqual({ text: hostile });
    const page = renderPage(assets, {
      file: hostile,
      status: { state: 'unreadable', message: hostile },
      events: [],
      live: false,
    });
    // The only script elements are the data block and the page's own script.
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).not.toContain('alert(1)</script>');
  });

  it('refuses to inline a bundle holding a closing script tag', () => {
    expect(() => renderPage({ script: 'x = "</script>"', styles: '' })).toThrow(/closing tag/);
  });
});
