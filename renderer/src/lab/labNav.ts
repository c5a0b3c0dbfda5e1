/**
 * Whether the Lab fills the main area. Its own tiny store so the header button and the main
 * area agree without the Lab's data store being loaded while it is closed.
 */
import { create } from 'zustand';

interface LabNav {
  open: boolean;
  setOpen(open: boolean): void;
}

export const useLabNav = create<LabNav>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
