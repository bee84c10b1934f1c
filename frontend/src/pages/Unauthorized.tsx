import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { auth } from '../api';
import { useAuth } from '../auth/AuthContext';
import { Icon } from '../components/Icon';
import { buttonClass } from '../components/LinkButton';

export default function Unauthorized() {
  const { status } = useAuth();
  const navigate = useNavigate();
  // A signed-in visitor would bounce straight back from /auth, so sign out first.
  const switchAccount = async () => {
    if (status === 'signedIn') await auth.signOut();
    navigate('/auth');
  };
  return (
    <main className="pub page page--center">
      <div className="card narrow denied">
        <div className="card__body center">
          <Icon name="lock" size={48} className="denied__icon" />
          <h1>Access Denied</h1>
          <p className="muted">
            You don't have the required role permissions to access this page. Contact an administrator if you believe you should have
            access.
          </p>
          <div className="stack stack--tight">
            <RouterLink to="/dashboard" className={buttonClass('contained')}>
              Go to Dashboard
            </RouterLink>
            <button type="button" className={buttonClass('outlined')} onClick={switchAccount}>
              Sign In with Different Account
            </button>
          </div>
        </div>
      </div>
    </main>
  );
}
