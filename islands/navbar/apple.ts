// Sign in with Apple in the browser: Apple's script (loaded only when the button is used)
// opens Apple's popup and hands back an id_token, which the server verifies.

const SCRIPT = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js';

interface AppleIdAuth {
  init(opts: { clientId: string; scope: string; redirectURI: string; usePopup: boolean }): void;
  signIn(): Promise<{ authorization: { id_token: string } }>;
}

function loadScript(): Promise<AppleIdAuth> {
  const w = window as unknown as { AppleID?: { auth: AppleIdAuth } };
  if (w.AppleID) return Promise.resolve(w.AppleID.auth);
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = SCRIPT;
    s.onload = () => (w.AppleID ? resolve(w.AppleID.auth) : reject(new Error('Apple script did not load')));
    s.onerror = () => reject(new Error('Apple script did not load'));
    document.head.appendChild(s);
  });
}

export async function signInWithApple(clientId: string): Promise<string> {
  const auth = await loadScript();
  auth.init({ clientId, scope: 'name email', redirectURI: window.location.origin + '/', usePopup: true });
  const res = await auth.signIn();
  return res.authorization.id_token;
}
