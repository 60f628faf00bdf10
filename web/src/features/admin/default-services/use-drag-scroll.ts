import { type MouseEvent, type PointerEvent, useRef } from 'react';

/** How far the pointer must move before a press becomes a drag rather than a click. */
const DRAG_THRESHOLD_PX = 5;

/** Presses starting here keep their own meaning (selecting text, moving a caret). */
const KEEPS_POINTER = 'input, textarea, select, [contenteditable="true"]';

/**
 * Lets a horizontally scrollable element be dragged with the mouse (spec doc 3
 * §2, Default Service Configuration). Touch and pens scroll natively. A drag
 * swallows the click that ends it, so a card's button under the pointer is not
 * pressed by accident.
 */
export function useDragScroll<T extends HTMLElement>() {
  const drag = useRef<{ pointerId: number; startX: number; startScroll: number; isDragging: boolean } | null>(null);
  const suppressClick = useRef(false);

  const onPointerDown = (event: PointerEvent<T>) => {
    if (event.pointerType !== 'mouse' || event.button !== 0) return;
    if ((event.target as Element).closest(KEEPS_POINTER)) return;
    drag.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startScroll: event.currentTarget.scrollLeft,
      isDragging: false,
    };
    suppressClick.current = false;
  };

  const onPointerMove = (event: PointerEvent<T>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    if (!current.isDragging && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
    if (!current.isDragging) {
      current.isDragging = true;
      // Keep receiving moves when the pointer leaves the row; jsdom has no pointer capture.
      event.currentTarget.setPointerCapture?.(event.pointerId);
    }
    event.currentTarget.scrollLeft = current.startScroll - dx;
  };

  const end = (event: PointerEvent<T>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    suppressClick.current = current.isDragging;
    drag.current = null;
  };

  const onClickCapture = (event: MouseEvent<T>) => {
    if (!suppressClick.current) return;
    suppressClick.current = false;
    event.preventDefault();
    event.stopPropagation();
  };

  return {
    handlers: { onPointerDown, onPointerMove, onPointerUp: end, onPointerCancel: end, onClickCapture },
  };
}
