// Entry point referenced by index.html; the app itself is assembled in app/main.tsx.
import './app/main';
