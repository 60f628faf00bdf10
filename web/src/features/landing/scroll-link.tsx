import type { ReactNode } from 'react';
import { scrollToSection } from './motion';

interface ScrollLinkProps {
  sectionId: string;
  className?: string;
  onNavigate?: () => void;
  children: ReactNode;
}

/**
 * A real in-page link (it works without scripts and can be copied), upgraded to
 * a smooth scroll that leaves the router's location untouched.
 */
export function ScrollLink({ sectionId, className, onNavigate, children }: ScrollLinkProps) {
  const href = `#${sectionId}`;
  return (
    <a
      className={className}
      href={href}
      onClick={(event) => {
        if (scrollToSection(sectionId)) event.preventDefault();
        onNavigate?.();
      }}
    >
      {children}
    </a>
  );
}
