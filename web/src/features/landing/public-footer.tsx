import './public-layout.css';
import { Link } from 'react-router';
import { ChatIcon, FlatshipMark } from './icons';

export const COMMUNITY_CHAT_URL = 'https://t.me/flatship_community';

/** The footer of the public pages. */
export function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="lp-footer">
      <div className="lp-footer__inner">
        <div className="lp-footer__brand">
          <Link to="/" className="lp-nav__logo lp-footer__logo" aria-label="Flatship home">
            <FlatshipMark />
            <span>Flatship</span>
          </Link>
          <p className="lp-footer__tagline">Flat-rate USPS shipping labels for small businesses.</p>
        </div>
        <a className="lp-footer__community" href={COMMUNITY_CHAT_URL} target="_blank" rel="noopener noreferrer">
          <ChatIcon />
          Join our community chat
        </a>
      </div>
      <p className="lp-footer__copyright">© {year} Flatship. All rights reserved.</p>
    </footer>
  );
}
