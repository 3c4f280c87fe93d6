//! A connection that takes none of what it is sent for a while is cut: a
//! watcher of a live game that stopped reading, a client gone without a
//! word. Its writes fail (`TimedOut`) once the socket has refused bytes
//! for `limit` without a pause; hyper then closes the connection, and what
//! the response held (a live feed's place in its log) is dropped. A client
//! that reads, however slowly, is never cut: any progress starts the wait
//! anew.

use std::{
    future::Future,
    io,
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// `inner`, whose writes fail after `limit` of no progress.
pub struct Stalling<T> {
    inner: T,
    limit: Duration,
    /// Set while a write waits: when the wait ends in failure.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    pub fn new(inner: T, limit: Duration) -> Stalling<T> {
        Stalling { inner, limit, deadline: None }
    }

    /// A write that is `Pending`: still waiting, or failed if it waited `limit`.
    fn waited<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let limit = self.limit;
        let deadline = self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client took nothing for {} s", limit.as_secs_f64()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progress<R>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        match poll {
            Poll::Pending => self.waited(cx),
            done => {
                self.deadline = None;
                done
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.progress(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.progress(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.progress(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `buf` to `stream` until it fails; how many bytes went.
    async fn write_until_failure(stream: &mut Stalling<tokio::net::TcpStream>) -> (u64, io::Error) {
        let buf = vec![b'x'; 64 * 1024];
        let mut sent = 0;
        loop {
            match std::future::poll_fn(|cx| Pin::new(&mut *stream).poll_write(cx, &buf)).await {
                Ok(n) => sent += n as u64,
                Err(e) => return (sent, e),
            }
        }
    }

    #[test]
    fn a_client_that_reads_nothing_is_cut_one_that_reads_is_not() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            // The client connects and never reads.
            let idle = std::net::TcpStream::connect(address).unwrap();
            let (stream, _) = listener.accept().await.unwrap();
            let mut stalling = Stalling::new(stream, Duration::from_millis(300));
            let (sent, error) = write_until_failure(&mut stalling).await;
            assert_eq!(error.kind(), io::ErrorKind::TimedOut, "{error}");
            assert!(sent > 0, "the socket's buffers took some first");
            drop(idle);

            // A client that reads, on a thread of its own, is sent all.
            let reader = std::thread::spawn(move || {
                let mut client = std::net::TcpStream::connect(address).unwrap();
                std::io::copy(&mut client, &mut std::io::sink()).unwrap()
            });
            let (stream, _) = listener.accept().await.unwrap();
            let mut stalling = Stalling::new(stream, Duration::from_secs(2));
            let buf = vec![b'y'; 64 * 1024];
            for _ in 0..200 {
                let mut left = &buf[..];
                while !left.is_empty() {
                    let n = std::future::poll_fn(|cx| Pin::new(&mut stalling).poll_write(cx, left))
                        .await
                        .unwrap();
                    left = &left[n..];
                }
            }
            drop(stalling);
            assert_eq!(reader.join().unwrap(), 200 * 64 * 1024);
        });
    }
}
