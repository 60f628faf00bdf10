// The pre-rendered landing page's entrance, played until the app's code arrives (plain script, no
// dependencies, loaded by index.html before the app). It shows the hero once its image has loaded and
// fades sections in when 10% of them is in view, as the landing's components do; when the landing's
// own code arrives it sends `flatship:landing-takeover`, and this script stops, leaving the page as it is.
(() => {
  const hero = document.getElementById('landing');
  if (!hero || location.pathname !== '/') return;
  let stopped = false;
  let observer = null;
  document.addEventListener('flatship:landing-takeover', () => {
    stopped = true;
    if (observer) observer.disconnect();
  });

  const src = '/landing/hero.svg';
  const settle = (state) => {
    if (stopped) return;
    hero.setAttribute('data-image', state);
    hero.setAttribute('aria-busy', 'false');
    const inner = hero.querySelector('.lp-hero__inner');
    if (inner) {
      // Written as React writes it, so hydrating finds the attribute it would have set.
      if (state === 'loaded') inner.setAttribute('style', `background-image:url(${src})`);
      inner.hidden = false;
    }
    hero.querySelector('.lp-hero__loading')?.remove();
  };
  const image = new Image();
  image.onload = () => settle('loaded');
  image.onerror = () => settle('failed');
  image.src = src;

  const sections = document.querySelectorAll('#root .lp-reveal');
  if (typeof IntersectionObserver === 'undefined') {
    for (const section of sections) section.classList.add('is-visible');
    return;
  }
  observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || stopped) continue;
        entry.target.classList.add('is-visible');
        observer.unobserve(entry.target);
      }
    },
    { threshold: 0.1 },
  );
  for (const section of sections) observer.observe(section);
})();
