/** A phone or tablet: its camera is offered for a picture (a photo, a paper document). */
export function touchScreen(): boolean {
  return typeof window !== 'undefined' && Boolean(window.matchMedia?.('(pointer: coarse)').matches);
}
