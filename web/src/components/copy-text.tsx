import { useEffect, useRef, useState } from 'react';
import './components.css';

/** Spec: the copy confirmation shows for 1.5 s. */
export const COPIED_DURATION = 1500;

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and plain-http origins have no async clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

interface CopyTextProps {
  text: string;
  /** What is shown; defaults to the text itself. */
  children?: React.ReactNode;
  className?: string;
}

/** Click to copy `text`; confirms with 'Copied!' for 1.5 s. */
export function CopyText({ text, children, className }: CopyTextProps) {
  const [isCopied, setIsCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await writeClipboard(text);
    } catch (error) {
      console.error('Copy to clipboard failed', error);
      return;
    }
    setIsCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setIsCopied(false), COPIED_DURATION);
  };

  if (!text) return null;
  return (
    <button
      type="button"
      className={`copy-text ${className ?? ''}`}
      onClick={copy}
      title="Click to copy"
      aria-label={isCopied ? 'Copied!' : `Copy ${text}`}
    >
      <span className="copy-text__value">{children ?? text}</span>
      <span className={`copy-text__hint ${isCopied ? 'copy-text__hint--done' : ''}`} aria-live="polite">
        {isCopied ? 'Copied!' : <CopyIcon />}
      </span>
    </button>
  );
}

function CopyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="9" y="9" width="11" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}
