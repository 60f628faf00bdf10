import './components.css';

/** A decorative spinner; the surrounding text or Loader says what is loading. */
export function Spinner({ size = 24 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

/** A centred spinner with a visible label, used while a whole screen waits. */
export function Loader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loader" role="status" aria-live="polite">
      <Spinner size={36} />
      <span className="loader__label">{label}</span>
    </div>
  );
}
