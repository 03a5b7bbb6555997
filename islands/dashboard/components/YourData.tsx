import { ACCOUNT_DELETE_PATH, MEMBER_EXPORT_CONTENTS, MEMBER_EXPORT_PATH } from '../../../shared/member-data';

// Your data (issue 16): what the download holds, the download itself (a plain link: the
// server streams the ZIP as an attachment) and the way to delete the account. Static, so it
// costs the dashboard's script budget next to nothing.

export function YourData() {
  return (
    <div className="dash-your-data">
      <h1 className="dash-title">Your Data</h1>
      <section className="dash-panel" aria-labelledby="dash-export-title">
        <h2 id="dash-export-title" className="dash-subtitle">
          Download your data
        </h2>
        <p>One ZIP file with everything we keep about you:</p>
        <ul>
          {MEMBER_EXPORT_CONTENTS.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="dash-muted">Lists come as JSON and CSV (for spreadsheets); your favourites also as GeoJSON for maps, and your saved events as a calendar file (ICS).</p>
        <p className="dash-actions">
          <a className="button" href={MEMBER_EXPORT_PATH} download>
            Download my data
          </a>
        </p>
      </section>
      <section className="dash-panel" aria-labelledby="dash-delete-title">
        <h2 id="dash-delete-title" className="dash-subtitle">
          Delete my account
        </h2>
        <p>Close your account and delete your personal data. You will be asked to confirm.</p>
        <p>
          <a href={ACCOUNT_DELETE_PATH}>Delete my account</a>
        </p>
      </section>
    </div>
  );
}
