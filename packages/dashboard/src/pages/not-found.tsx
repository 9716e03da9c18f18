import { PageTitle } from '../components/page-title.tsx';
import { paths } from '../paths.ts';

export function NotFoundPage() {
  return (
    <>
      <PageTitle title="Not found">Page not found</PageTitle>
      <p>
        This page does not exist. <a href={paths.charges}>Go to the charges</a>.
      </p>
    </>
  );
}
