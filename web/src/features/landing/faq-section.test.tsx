import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FaqSection } from './faq-section';
import { renderAt } from './test-utils';

const QUESTIONS = [
  'What services do you offer?',
  'How can I contact customer support?',
  'Do you offer a money-back guarantee?',
  'Why do you accept payment in Bitcoin?',
];

/** The questions whose answer panel is currently shown. */
function openAnswers(): string[] {
  return QUESTIONS.filter((question) => screen.queryByRole('region', { name: question }) !== null);
}

describe('FaqSection', () => {
  it('lists the four questions, all closed at first', () => {
    renderAt(<FaqSection />);
    const buttons = screen.getAllByRole('button', { expanded: false });
    expect(buttons.map((button) => button.textContent)).toEqual(QUESTIONS);
    for (const button of buttons) expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(openAnswers()).toEqual([]);
  });

  it('keeps only one answer open at a time', async () => {
    const user = userEvent.setup();
    renderAt(<FaqSection />);

    await user.click(screen.getByRole('button', { name: QUESTIONS[0] }));
    expect(screen.getByRole('button', { name: QUESTIONS[0] })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: QUESTIONS[0] })).toHaveTextContent(/USPS/);

    await user.click(screen.getByRole('button', { name: QUESTIONS[3] }));
    expect(screen.getByRole('button', { name: QUESTIONS[0] })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: QUESTIONS[3] })).toHaveAttribute('aria-expanded', 'true');
    expect(openAnswers()).toEqual([QUESTIONS[3]]);
    expect(screen.getByRole('region', { name: QUESTIONS[3] })).toHaveTextContent(/keeping our rates lower/);
  });

  it('closes the open answer when its question is clicked again', async () => {
    const user = userEvent.setup();
    renderAt(<FaqSection />);
    const question = screen.getByRole('button', { name: QUESTIONS[2] });

    await user.click(question);
    expect(screen.getByRole('region', { name: QUESTIONS[2] })).toHaveTextContent('30-day money-back guarantee');
    await user.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'false');
    expect(openAnswers()).toEqual([]);
  });

  it('points each question at the panel it controls', async () => {
    const user = userEvent.setup();
    renderAt(<FaqSection />);
    const question = screen.getByRole('button', { name: QUESTIONS[1] });
    await user.click(question);
    const panel = screen.getByRole('region', { name: QUESTIONS[1] });
    expect(question).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveTextContent('24/7');
  });

  it('opens with the keyboard', async () => {
    const user = userEvent.setup();
    renderAt(<FaqSection />);
    await user.tab();
    expect(screen.getByRole('button', { name: QUESTIONS[0] })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: QUESTIONS[0] })).toHaveAttribute('aria-expanded', 'true');
  });
});
