import { type ReactNode, type SVGProps, useId } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

// Decorative line icons drawn on a 24px grid. They are hidden from assistive
// technology; the text next to them carries the meaning.
function LineIcon({ children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function UserPlusIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21a7 7 0 0 1 14 0" />
      <path d="M19 8v6M16 11h6" />
    </LineIcon>
  );
}

export function ParcelIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M21 8 12 3 3 8v8l9 5 9-5V8Z" />
      <path d="m3 8 9 5 9-5M12 13v8" />
      <path d="m7.5 5.5 9 5" />
    </LineIcon>
  );
}

export function ReceiptCheckIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M6 2h12v20l-3-2-3 2-3-2-3 2V2Z" />
      <path d="m9 11 2 2 4-4" />
    </LineIcon>
  );
}

export function SparkleIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M12 3v4M12 17v4M3 12h4M17 12h4" />
      <path d="m6 6 2.5 2.5M15.5 15.5 18 18M18 6l-2.5 2.5M8.5 15.5 6 18" />
    </LineIcon>
  );
}

export function AwardIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="12" cy="9" r="6" />
      <path d="m8.5 14-1.5 8 5-3 5 3-1.5-8" />
      <path d="m10 9 1.5 1.5L14.5 7.5" />
    </LineIcon>
  );
}

export function TagIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9-9-9Z" />
      <circle cx="7.5" cy="7.5" r="1.5" />
    </LineIcon>
  );
}

export function HeadsetIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
      <rect x="2.5" y="13" width="4" height="6" rx="1.5" />
      <rect x="17.5" y="13" width="4" height="6" rx="1.5" />
      <path d="M19.5 19a4 4 0 0 1-4 3H13" />
    </LineIcon>
  );
}

export function EyeIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </LineIcon>
  );
}

export function ShieldCheckIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Z" />
      <path d="m9 12 2 2 4-4" />
    </LineIcon>
  );
}

export function ClipboardIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <rect x="5" y="4" width="14" height="18" rx="2" />
      <path d="M9 2h6v4H9zM9 11h6M9 15h6M9 19h3" />
    </LineIcon>
  );
}

export function TruckIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M1 5h13v11H1zM14 9h4l4 4v3h-8z" />
      <circle cx="5.5" cy="18" r="2" />
      <circle cx="17.5" cy="18" r="2" />
    </LineIcon>
  );
}

export function LayersIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="m12 2 10 5-10 5L2 7l10-5Z" />
      <path d="m2 12 10 5 10-5M2 17l10 5 10-5" />
    </LineIcon>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="m5 12 4.5 4.5L19 7" />
    </LineIcon>
  );
}

export function ChevronDownIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="m6 9 6 6 6-6" />
    </LineIcon>
  );
}

export function ArrowRightIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </LineIcon>
  );
}

export function MenuIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 7h16M4 12h16M4 17h16" />
    </LineIcon>
  );
}

export function CloseIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M6 6l12 12M18 6 6 18" />
    </LineIcon>
  );
}

export function ChatIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 21l1.9-5.4A8 8 0 1 1 21 12Z" />
      <path d="M8.5 12h.01M12 12h.01M15.5 12h.01" strokeWidth="2.6" />
    </LineIcon>
  );
}

export function MoonIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M20 14.5A8.5 8.5 0 1 1 9.5 4a7 7 0 0 0 10.5 10.5Z" />
    </LineIcon>
  );
}

export function QuoteIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true" focusable="false" {...props}>
      <path d="M9.6 5C5.9 6.6 3 9.8 3 14.4V19h7v-7H6.6c.3-2.4 1.7-4.2 4-5.4L9.6 5Zm11 0c-3.7 1.6-6.6 4.8-6.6 9.4V19h7v-7h-3.4c.3-2.4 1.7-4.2 4-5.4L20.6 5Z" />
    </svg>
  );
}

/** The Flatship mark: a parcel whose lid folds into a flat line. */
export function FlatshipMark(props: IconProps) {
  // The mark can appear twice on a page (navbar and footer); ids must stay unique.
  const gradientId = useId();
  return (
    <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false" {...props}>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop stopColor="#ffb547" />
          <stop offset="1" stopColor="#f27a1a" />
        </linearGradient>
      </defs>
      <path d="M7 12.5 16 8l9 4.5v9L16 26l-9-4.5z" fill="#0b1d3f" />
      <path d="M7 12.5 16 17l9-4.5M16 17v9" stroke="#ffd28a" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
      <path d="M10.5 10.7 19.5 15.2" stroke="#ffd28a" strokeWidth="1.6" />
    </svg>
  );
}
