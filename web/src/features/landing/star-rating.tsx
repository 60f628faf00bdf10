const MAX_STARS = 5;
const STAR_PATH = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

function Star({ fill }: { fill: number }) {
  return (
    <span className="lp-star">
      <svg viewBox="0 0 24 24" className="lp-star__empty" aria-hidden="true" focusable="false">
        <path d={STAR_PATH} />
      </svg>
      {fill > 0 ? (
        // The filled star is clipped to the fraction it represents, so 0.5 draws half a star.
        <span className="lp-star__fill" style={{ width: `${fill * 100}%` }}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={STAR_PATH} />
          </svg>
        </span>
      ) : null}
    </span>
  );
}

/** A 0–5 star rating drawn to the nearest half star, announced as one phrase. */
export function StarRating({ value }: { value: number }) {
  const rating = Math.min(MAX_STARS, Math.max(0, Math.round(value * 2) / 2));
  return (
    <span className="lp-stars" role="img" aria-label={`Rated ${rating} out of ${MAX_STARS}`}>
      {Array.from({ length: MAX_STARS }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the five stars are fixed positions
        <Star key={index} fill={Math.min(1, Math.max(0, rating - index))} />
      ))}
    </span>
  );
}
