import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, emptyDashboardHandlers } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(...emptyDashboardHandlers());

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user']) {
  await user.type(screen.getByLabelText('Email'), 'jane@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('Login page', () => {
  it('shows the form with links to register and forgot password', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Create one' })).toHaveAttribute('href', '/register');
  });

  it('signs in, stores the token and goes to the dashboard', async () => {
    let body: unknown;
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(api('auth/login'), async ({ request }) => {
        body = await request.json();
        await answered;
        return HttpResponse.json({ token: 'fresh-token', user: makeUser() });
      }),
    );
    const app = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome Back!' });
    await fillAndSubmit(app.user);

    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
    release();

    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(body).toEqual({ email: 'jane@example.com', password: 'secret-pass' });
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
  });

  it("shows the server's message when the password is wrong", async () => {
    server.use(
      http.post(api('auth/login'), () =>
        HttpResponse.json({ code: 'AUTH_INVALID_CREDENTIALS', message: 'Invalid email or password' }, { status: 401 }),
      ),
    );
    const app = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome Back!' });
    await fillAndSubmit(app.user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(app.path()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it("shows 'Login failed' when the server cannot be reached", async () => {
    server.use(http.post(api('auth/login'), () => HttpResponse.error()));
    const app = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome Back!' });
    await fillAndSubmit(app.user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');
    expect(app.path()).toBe('/login');
  });
});
