/**
 * The part of pdfmake's document definition the app writes (pdfmake 0.3 ships no types, and @types/pdfmake
 * describes 0.2's API). See https://pdfmake.github.io/docs/.
 */
export type Content =
  | string
  | number
  | null
  | Content[]
  | {
      text?: Content;
      stack?: Content[];
      columns?: Content[];
      table?: { headerRows?: number; widths?: (number | string)[]; body: Content[][] };
      layout?: string | Record<string, unknown>;
      image?: string;
      width?: number | string;
      fit?: [number, number];
      canvas?: Record<string, unknown>[];
      [style: string]: unknown;
    };

export interface DocumentDefinition {
  content: Content;
  pageSize?: string;
  pageOrientation?: 'portrait' | 'landscape';
  pageMargins?: number | [number, number, number, number];
  defaultStyle?: Record<string, unknown>;
  styles?: Record<string, Record<string, unknown>>;
  header?: unknown;
  footer?: unknown;
  watermark?: { text: string; color?: string; opacity?: number; bold?: boolean; fontSize?: number };
  info?: { title?: string; author?: string; subject?: string };
}
