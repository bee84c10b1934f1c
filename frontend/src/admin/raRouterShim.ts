/**
 * What react-admin's router adapter (ra-core routing/adapters/reactRouterProvider) imports from
 * react-router-dom, minus the data-router API it needs only when it is NOT inside a router
 * (createHashRouter, RouterProvider, useBlocker). The console always runs inside the app's
 * BrowserRouter, so those are never called. Without this shim they would ship with every public
 * page: react-router is one module, and it lives in the entry chunk. vite.config.ts points the
 * adapter (and only it) here.
 */
export {
  useNavigate,
  useLocation,
  useParams,
  useMatch,
  useInRouterContext,
  Link,
  Navigate,
  Route,
  Routes,
  Outlet,
  matchPath,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
} from 'react-router-dom';

// Blocking needs a data router; react-admin asks for it only when one exists (useCanBlock).
const unblocked = { state: 'unblocked' as const, proceed: undefined, reset: undefined, location: undefined };
export const useBlocker = () => unblocked;

export const createHashRouter = (): never => {
  throw new Error('The admin console runs inside the app router');
};

export const RouterProvider = () => null;
