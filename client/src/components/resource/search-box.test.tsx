import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SearchBox } from './search-box';

// The address changes at once on a search, the list draws it a moment later (a transition): a second search typed
// in that moment must survive the first one being drawn. (The box used to be remounted on every new `q`.)
describe('a list search box', () => {
  it('keeps what is typed while its own search is drawn, and follows the address changed from elsewhere', async () => {
    const user = userEvent.setup();
    const sent: string[] = [];
    const { rerender } = render(
      <SearchBox value={undefined} label="Search" onSearch={(q) => sent.push(q)} />,
    );
    const box = screen.getByRole('searchbox', { name: 'Search' });

    await user.type(box, 'Area{Enter}');
    expect(sent).toEqual(['Area']);
    // the next search typed before the first is drawn
    await user.clear(box);
    await user.type(box, '分區');
    rerender(<SearchBox value="Area" label="Search" onSearch={(q) => sent.push(q)} />);
    expect(box).toHaveValue('分區');
    await user.type(box, '{Enter}');
    expect(sent).toEqual(['Area', '分區']);

    // a trimmed search is the same search
    await user.clear(box);
    await user.type(box, ' District {Enter}');
    rerender(<SearchBox value="District" label="Search" onSearch={(q) => sent.push(q)} />);
    expect(box).toHaveValue(' District ');

    // a reset or the back button: the box shows the address's search
    rerender(<SearchBox value={undefined} label="Search" onSearch={(q) => sent.push(q)} />);
    expect(box).toHaveValue('');
    rerender(<SearchBox value="Area" label="Search" onSearch={(q) => sent.push(q)} />);
    expect(box).toHaveValue('Area');
  });
});
