// A view drawn once (an answer in the console or the flow) whose parts
// must follow the state after it: a challenge answered elsewhere, a
// payment that failed later. `follow` calls `update` on each change of
// the store while the view is in the page, and lets go of the store once
// the view has left the page.
export function follow(store, node, update) {
  const changed = (e) => {
    if (!node.isConnected) store.removeEventListener("change", changed);
    else update(e.detail ?? {});
  };
  store.addEventListener("change", changed);
}
