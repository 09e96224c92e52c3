import { useEffect, type KeyboardEvent } from 'react';

/**
 * Enter in a record form's field does not save the form (issue 31 §1): people press Enter to confirm a date
 * typed in a picker, a choice in a select or a collection row's cell, and the browser's implicit submission
 * would then save the whole record and leave the page. A record form is saved by its Save button or by
 * Ctrl/⌘+S (`useSaveShortcut`). Given as the form's `onKeyDownCapture`: the field's own Enter (the picker
 * confirming its date, the select choosing its option) still runs; only the form's submission is prevented.
 * A text area's Enter (a new line) and a button's (pressing it) are left alone.
 */
export function enterDoesNotSubmit(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  const target = event.target as HTMLElement;
  if (target.tagName !== 'INPUT') return;
  const type = (target as HTMLInputElement).type;
  if (type === 'submit' || type === 'button' || type === 'reset' || type === 'image') return;
  event.preventDefault();
}

/** Ctrl+S or ⌘+S (not with Shift or Alt): the save shortcut, instead of the browser's "save page". */
export function isSaveShortcut(
  event: Pick<globalThis.KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): boolean {
  return (
    (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 's'
  );
}

/**
 * While the form is shown (and may be saved), Ctrl/⌘+S saves it: `save` is the form's own submission
 * (`form.submit()`: its rules are checked first, so a record missing a required part is shown its errors,
 * never saved silently). The browser's "save page" dialog is kept from opening.
 */
export function useSaveShortcut(save: () => void, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isSaveShortcut(event) || event.repeat) return;
      event.preventDefault();
      save();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [save, enabled]);
}
