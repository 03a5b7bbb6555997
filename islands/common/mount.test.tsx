import { act } from 'react';
import { inTaskOfItsOwn, mountIsland } from './mount';

// Islands mount after the task that evaluated the page's modules, one island a task (issue 41:
// no task at load holds every island), and still replace the server's markup.

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('inTaskOfItsOwn', () => {
  test('runs nothing in the calling task, then one function a task, in order', async () => {
    const ran: string[] = [];
    inTaskOfItsOwn(() => ran.push('a'));
    inTaskOfItsOwn(() => ran.push('b'));
    expect(ran).toEqual([]);
    await nextTask();
    expect(ran).toEqual(['a']);
    await nextTask();
    expect(ran).toEqual(['a', 'b']);
  });

  test('a function that throws does not stop the ones queued after it', async () => {
    const ran: string[] = [];
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => {
      errors.push(e.error);
      e.preventDefault();
    };
    window.addEventListener('error', onError);
    inTaskOfItsOwn(() => {
      throw new Error('broken island');
    });
    inTaskOfItsOwn(() => ran.push('next'));
    await nextTask();
    await nextTask();
    window.removeEventListener('error', onError);
    expect(ran).toEqual(['next']);
    expect(errors).toEqual([new Error('broken island')]);
  });
});

describe('mountIsland', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

  test('leaves the server markup in the calling task and replaces it in a later one', async () => {
    // Fake timers: the islands' tasks (timers in jsdom) run one at a time, when the test says;
    // with real ones, a busy machine's late timer let two run before the test's own (CI).
    jest.useFakeTimers();
    document.body.innerHTML = '<div data-island="navbar"><p>server</p></div><div data-island="saves"><p>server</p></div>';
    const calls: string[] = [];
    mountIsland('navbar', () => {
      calls.push('navbar');
      return <p>island navbar</p>;
    });
    mountIsland('saves', () => {
      calls.push('saves');
      return <p>island saves</p>;
    });
    expect(calls).toEqual([]);
    expect(document.body.textContent).toBe('serverserver');
    try {
      act(() => void jest.advanceTimersToNextTimer());
      expect(calls).toEqual(['navbar']);
      act(() => void jest.advanceTimersToNextTimer());
      expect(calls).toEqual(['navbar', 'saves']);
    } finally {
      jest.useRealTimers();
    }
    expect(document.querySelector('[data-island="navbar"]')!.textContent).toBe('island navbar');
    expect(document.querySelector('[data-island="saves"]')!.textContent).toBe('island saves');
  });

  test('mounts a placeholder once however often it is asked', async () => {
    document.body.innerHTML = '<div data-island="navbar"></div>';
    let renders = 0;
    const render = () => {
      renders += 1;
      return <p>once</p>;
    };
    mountIsland('navbar', render);
    mountIsland('navbar', render);
    await act(async () => {
      await nextTask();
      await nextTask();
    });
    expect(renders).toBe(1);
  });
});
