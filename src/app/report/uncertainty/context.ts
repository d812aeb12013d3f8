/**
 * The uncertainty block of the report on screen, given to every table cell and plot of the
 * report through context (ReportView provides it) rather than one store subscription per cell.
 */
import { createContext, useContext } from 'react';
import type { UncertaintyBlockView } from './block';

export const IntervalsContext = createContext<UncertaintyBlockView | null>(null);

export function useIntervals(): UncertaintyBlockView | null {
  return useContext(IntervalsContext);
}
