import { ErrorScreen } from './error-screen';

/** The catch-all screen: any path the route table does not know. */
export default function NotFoundPage() {
  return <ErrorScreen kind="404" />;
}
