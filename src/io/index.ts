/** Folder access in the page: the three ways to open a folder, all producing one Listing shape. */
export * from './listing';
export { listDirectoryHandle } from './directoryHandle';
export { readDrop, type DroppedItems } from './dropped';
export { listingFromDirectoryInput, listingFromFileInput } from './inputFiles';
export { hasDirectoryPicker, hasFilePicker, pickDirectory, pickFiles, reopenDirectory, type PickedFolder } from './pickers';
