import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

// No handlers: any request from this page fails the test.
setupTestServer();

describe('Forgot password page', () => {
  it('explains that support resets passwords, without calling the server', async () => {
    const app = renderApp('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(screen.getByRole('status')).toHaveTextContent(
      'Contact our 24/7 support through the chat widget and we will reset it for you',
    );
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });
});
