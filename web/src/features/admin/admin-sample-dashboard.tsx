import './admin.css';

// Spec doc 3 §1: the admin dashboard and /main/admin are placeholders filled
// with hard-coded sample figures; they read no live data.
const SAMPLE_STATS = [
  { label: 'Users', value: '1,248' },
  { label: 'Orders', value: '8,930' },
  { label: 'Services', value: '12' },
  { label: 'Revenue', value: '$54,320.00' },
  { label: 'Pending Orders', value: '37' },
] as const;

const SAMPLE_ACTIVITY = [
  { id: 1, text: 'New user registered: john.doe@example.com', when: '2 minutes ago' },
  { id: 2, text: 'Bulk order #1042 completed (120 labels)', when: '15 minutes ago' },
  { id: 3, text: 'Deposit of $500.00 settled', when: '1 hour ago' },
  { id: 4, text: 'Service "USPS Priority Mail" price updated', when: '3 hours ago' },
  { id: 5, text: 'User jane.smith@example.com blocked', when: 'Yesterday' },
] as const;

export function AdminSampleDashboard() {
  return (
    <div className="admin-sample">
      <p className="alert alert--info admin-sample__notice">Sample figures for illustration — not live data.</p>
      <section className="admin-sample__stats" aria-label="Sample figures">
        {SAMPLE_STATS.map((s) => (
          <div key={s.label} className="card admin-sample__stat">
            <span className="admin-sample__label">{s.label}</span>
            <span className="admin-sample__value">{s.value}</span>
          </div>
        ))}
      </section>
      <section className="card admin-sample__activity" aria-labelledby="admin-activity-heading">
        <h2 id="admin-activity-heading" className="admin-sample__title">
          Recent Activity
        </h2>
        <ul className="admin-sample__list">
          {SAMPLE_ACTIVITY.map((a) => (
            <li key={a.id} className="admin-sample__item">
              <span>{a.text}</span>
              <span className="admin-sample__when">{a.when}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
